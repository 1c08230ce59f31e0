import type { Page } from 'playwright-core'
import { latestLink } from './outbox.ts'

/**
 * Fills the sign-up form already open on `page`, then does what the person does next: opens the
 * link from the mail and confirms. The page ends where the sign-up was headed (`return_to`).
 */
export async function signUpInBrowser(
  page: Page,
  person: { name: string; email: string; password?: string },
): Promise<void> {
  await page.getByLabel('Name').fill(person.name)
  await page.getByLabel('Email').fill(person.email)
  await page.getByLabel('Password').fill(person.password ?? 'correct horse battery staple')
  await page.getByRole('button', { name: 'Create your account' }).click()
  await page.getByRole('heading', { name: 'Check your email' }).waitFor()
  await page.goto(latestLink(person.email, '/sign-up/confirm'))
  await page.getByRole('button', { name: 'Create my account' }).click()
}
