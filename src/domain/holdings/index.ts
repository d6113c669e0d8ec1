/** Holdings of an account at a past date, valued and weighed (design §8). Pure. */
export * from './holdings-as-of-date.js';
