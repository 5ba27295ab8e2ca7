import type { FetchBaseQueryError } from '@reduxjs/toolkit/query';

/** Server errors are JSON `{error, message, fields?}`; network failures have no body. */
export interface ApiErrorInfo {
  status: number | 'network' | 'unknown';
  code?: string;
  message?: string;
  fields?: { field: string; message: string }[];
}

const isFetchError = (error: unknown): error is FetchBaseQueryError =>
  typeof error === 'object' && error !== null && 'status' in error;

export function describeApiError(error: unknown): ApiErrorInfo {
  if (isFetchError(error)) {
    if (typeof error.status === 'number') {
      const body = (error.data ?? {}) as Partial<Record<'error' | 'message', unknown>> & {
        fields?: unknown;
      };
      return {
        status: error.status,
        code: typeof body.error === 'string' ? body.error : undefined,
        message: typeof body.message === 'string' ? body.message : undefined,
        fields: Array.isArray(body.fields) ? (body.fields as ApiErrorInfo['fields']) : undefined,
      };
    }
    if (error.status === 'FETCH_ERROR' || error.status === 'TIMEOUT_ERROR') {
      return { status: 'network' };
    }
  }
  const message =
    typeof error === 'object' && error !== null && 'message' in error
      ? String((error as { message: unknown }).message)
      : undefined;
  return { status: 'unknown', message };
}

/** Field errors as one line for a toast: "birthDate: must not be in the future". */
export function fieldErrorSummary(info: ApiErrorInfo): string | undefined {
  if (!info.fields?.length) return info.message;
  return info.fields.map((f) => `${f.field}: ${f.message}`).join('; ');
}
