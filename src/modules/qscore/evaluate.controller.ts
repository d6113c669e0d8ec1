import { AuditedRead } from '../../common/decorators/audited.decorator.js';
import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
  ApiUnprocessableEntityResponse,
} from '@nestjs/swagger';
import { CurrentClient, Scopes } from '../../common/decorators/auth.decorators.js';
import type { AuthenticatedClient } from '../../common/http/request-context.js';
import { formatPercent, formatUsd } from '../../domain/money/format.js';
import { AccountEvaluationService, type AccountEvaluation } from './account-evaluation.service.js';
import { EvaluateAccountDto, EvaluateResultDto } from './dto/evaluate.dto.js';

function toEvaluateResult(evaluation: AccountEvaluation): EvaluateResultDto {
  return {
    score: evaluation.qScore,
    grade: evaluation.grade,
    btc_weight: formatPercent(evaluation.btcWeight),
    risk_level: evaluation.riskLevel,
    account_id: evaluation.accountId,
    as_of_date: evaluation.asOfDate,
    f_score: evaluation.fScore,
    r_score: evaluation.rScore,
    holdings: evaluation.holdings.map((holding) => ({
      symbol: holding.symbol,
      quantity: holding.quantity,
      value_usd: formatUsd(holding.valueUsd),
      weight: formatPercent(holding.weight),
    })),
    excluded: evaluation.excluded.map(({ symbol, quantity, reason }) => ({ symbol, quantity, reason })),
  };
}

@ApiTags('QScore')
@Scopes('partner')
@Controller('qscore')
export class EvaluateController {
  constructor(private readonly evaluations: AccountEvaluationService) {}

  @Post('evaluate')
  @AuditedRead('account.read.qscore', { target: { body: 'account_id' } })
  @HttpCode(200)
  @ApiOperation({
    summary: 'QScore of a linked account’s holdings as of a date',
    description:
      'Holdings at the end of the UTC day from the account’s transactions (the cost-basis engine’s quantities), valued at that day’s stored prices, scored like a portfolio (covariance-based risk). Holdings without a price or score data are left out and listed in `excluded`.',
  })
  @ApiOkResponse({ type: EvaluateResultDto })
  @ApiBadRequestResponse({
    description:
      'Malformed body (named fields), as_of_date in the future or before the account’s first transaction.',
  })
  @ApiNotFoundResponse({ description: 'The account does not exist for this tenant.' })
  @ApiUnprocessableEntityResponse({
    description:
      'Nothing to score: no transactions yet, nothing held that day, or no holding with price and score data (`reason`).',
  })
  async evaluate(
    @CurrentClient() client: AuthenticatedClient,
    @Body() body: EvaluateAccountDto,
  ): Promise<EvaluateResultDto> {
    return toEvaluateResult(
      await this.evaluations.evaluate(client.tenantId, body.account_id, body.as_of_date),
    );
  }
}
