/** Filling the reading forms as a person does (shared by the browser tests and the benchmarks). */
import type { Locator, Page } from 'playwright-core';

export interface BirthDataEntry {
  first: string;
  last: string;
  day: string;
  month: string;
  year: string;
  time: string;
  city: string;
  country: string;
}

/** Ada Lovelace's data as the forms take it (1990, so every year list has it). */
export const ADA: BirthDataEntry = {
  first: 'Ada',
  last: 'Lovelace',
  day: '10',
  month: '12',
  year: '1990',
  time: '13:00',
  city: 'London',
  country: 'United Kingdom',
};

/** Fills a person's birth data inside `scope` (the page, or a 'Person 1' / 'Person 2' fieldset). */
export async function fillBirthData(scope: Locator | Page, person: BirthDataEntry) {
  await scope.getByLabel('First name').fill(person.first);
  await scope.getByLabel('Last name').fill(person.last);
  await scope.getByLabel('Day').selectOption(person.day);
  await scope.getByLabel('Month').selectOption(person.month);
  await scope.getByLabel('Year').selectOption(person.year);
  await scope.getByLabel('Birth time').fill(person.time);
  await scope.getByLabel('City', { exact: true }).fill(person.city);
  await scope.getByLabel('City', { exact: true }).press('Escape');
  await scope.getByLabel('Country', { exact: true }).fill(person.country);
}

/** Fills the Life Path Number form (names and birth date) with `person`'s. */
export async function fillLifePath(page: Page, person: BirthDataEntry) {
  await page.getByLabel('First name').fill(person.first);
  await page.getByLabel('Last name').fill(person.last);
  await page.getByLabel('Day').selectOption(person.day);
  await page.getByLabel('Month').selectOption(person.month);
  await page.getByLabel('Year').selectOption(person.year);
}
