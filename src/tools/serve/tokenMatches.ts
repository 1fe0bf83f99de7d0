import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * Whether an `Authorization: Bearer …` header carries `token`, compared in constant time (both
 * sides hashed first, so neither the length nor a prefix leaks through timing).
 * @example tokenMatches(request.headers.authorization, process.env.LOOPCHART_API_TOKEN)
 */
export function tokenMatches(header: string | undefined, token: string): boolean {
  const given = /^Bearer (.+)$/i.exec(header ?? '')?.[1] ?? '';
  const digest = (text: string) => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(given), digest(token)) && given.length > 0;
}
