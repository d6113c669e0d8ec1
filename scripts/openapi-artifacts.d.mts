/** Types of the generator functions the SDK test calls (scripts/openapi-artifacts.mjs). */
export function renderTypes(document: object): Promise<string>;
export function renderVersion(document: object): string;
export function renderOperations(document: object): string;
