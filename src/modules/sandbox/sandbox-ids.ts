import { v5 as uuidv5 } from 'uuid';

/** Namespace of every sandbox fixture id: UUID v5 of a fixed name, identical on every machine. */
export const SANDBOX_NAMESPACE = 'b3c5e1f0-7a0e-5d1c-9a57-2f7c1e5a0c11';

export function sandboxId(name: string): string {
  return uuidv5(name, SANDBOX_NAMESPACE);
}

/** The partner tenants of the sandbox; each gets the synthetic accounts and portfolios. */
export const SANDBOX_TENANTS = [
  {
    slug: 'sandbox',
    name: 'Sandbox Advisory (synthetic)',
    clients: [{ clientId: 'sandbox-client', secret: 'sandbox-secret', scopes: ['partner'] }],
  },
  {
    slug: 'sandbox-b',
    name: 'Sandbox Advisory B (synthetic)',
    clients: [{ clientId: 'sandbox-b-client', secret: 'sandbox-b-secret', scopes: ['partner'] }],
  },
] as const;

/**
 * The sandbox's operator tenant (design §3 and §11): it holds the admin client and no partner data,
 * so no fixture is seeded into it. Marked sandbox like the others, so production refuses its client.
 */
export const SANDBOX_OPERATOR_TENANT = {
  slug: 'operator',
  name: 'Sandbox operator (admin clients, no partner data)',
  clients: [{ clientId: 'sandbox-admin', secret: 'sandbox-admin-secret', scopes: ['admin'] }],
} as const;

export const sandboxTenantId = (slug: string) => sandboxId(`tenant:${slug}`);
