import type { AccountEntity } from './entities/account.entity.js';

/**
 * An account as the accounts module hands it to others: the row's plain fields, no relations and
 * no ORM behaviour (services build it from SQL rows, never through the entity).
 */
export type AccountRecord = Omit<AccountEntity, 'tenant'>;
