import type { AppView } from '@astra/contracts';

/** Names joined as a person writes them: 'A', 'A or B', 'A, B or C'. */
const orList = (names: string[]) =>
  names.length <= 1 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} or ${names.at(-1)}`;

/**
 * What the free welcome credits buy, from the server's grant and the live reading costs
 * (GET /api/apps), so no page promises more than a new account gets. Null while unknown.
 */
export function welcomeOffer(
  welcomeCredits: number | undefined,
  apps: AppView[] | undefined,
): string | null {
  if (welcomeCredits === undefined || !apps) return null;
  if (welcomeCredits <= 0) return null;
  const credits = `${welcomeCredits} free welcome credits`;
  const affordable = apps.filter((app) => app.creditCost <= welcomeCredits);
  if (affordable.length === apps.length)
    return `${credits}, enough for any first reading, a natal chart included`;
  if (affordable.length === 0) return `${credits} toward your first reading`;
  return `${credits}, enough for a first ${orList(affordable.map((app) => app.name))}`;
}
