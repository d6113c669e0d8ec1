import type { PortfolioDto, PortfolioWithScoreDto } from './dto/portfolio.dto.js';
import type { PortfolioView, PortfolioWithScore } from './portfolios.service.js';

export function toPortfolioDto(portfolio: PortfolioView): PortfolioDto {
  return { id: portfolio.id, name: portfolio.name, allocations: { ...portfolio.allocations } };
}

export function toPortfolioWithScoreDto(portfolio: PortfolioWithScore): PortfolioWithScoreDto {
  return { ...toPortfolioDto(portfolio), qScore: portfolio.qScore };
}
