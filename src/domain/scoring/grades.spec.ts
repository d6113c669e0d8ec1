import { grade, riskLevel } from './grades.js';

describe('grade', () => {
  it.each([
    [100, 'A'],
    [80, 'A'],
    [79.99, 'B'],
    [65, 'B'],
    [64.99, 'C'],
    [50, 'C'],
    [49.99, 'D'],
    [35, 'D'],
    [34.99, 'F'],
    [0, 'F'],
  ])('qScore %p → %s', (qScore, expected) => {
    expect(grade(qScore)).toBe(expected);
  });
});

describe('riskLevel', () => {
  it.each([
    [0, 'low'],
    [24.99, 'low'],
    [25, 'moderate'],
    [49.99, 'moderate'],
    [50, 'high'],
    [74.99, 'high'],
    [75, 'very_high'],
    [100, 'very_high'],
  ])('rScore %p → %s', (rScore, expected) => {
    expect(riskLevel(rScore)).toBe(expected);
  });
});
