import { count, type Fields, text } from '../result/resultFields';

export interface LifePathView {
  lifePathNumber: number;
  destinyNumber: number;
  soulUrgeNumber: number;
  text: string;
  firstName?: string;
  lastName?: string;
  birthDate?: string;
}

/** The result of GET /api/readings/:id, or the spec's older `data=` JSON (same fields). */
export function lifePathFromResult(result: Fields | null): LifePathView | null {
  if (!result) return null;
  const lifePathNumber = count(result.lifePathNumber);
  const destinyNumber = count(result.destinyNumber);
  const soulUrgeNumber = count(result.soulUrgeNumber);
  const body = text(result.text);
  if (lifePathNumber === undefined || destinyNumber === undefined || soulUrgeNumber === undefined)
    return null;
  if (body === undefined) return null;
  return {
    lifePathNumber,
    destinyNumber,
    soulUrgeNumber,
    text: body,
    firstName: text(result.firstName),
    lastName: text(result.lastName),
    birthDate: text(result.birthDate),
  };
}
