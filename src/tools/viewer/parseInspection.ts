import { z } from 'zod';

const id = z.string().min(1).max(200);
const common = {
  sessionId: id,
  rootId: id.optional(),
  createdAt: z.union([z.string(), z.number()]).optional(),
};
const eventType = z
  .looseObject({ type: z.string() })
  .optional()
  .transform((event) => event?.type.slice(0, 200) ?? '');

const inspectionSchema = z.discriminatedUnion('type', [
  z.looseObject({
    type: z.literal('@xstate.actor'),
    ...common,
    name: z.string().max(200).optional(),
    parentId: id.nullish(),
    definition: z.string().optional(),
  }),
  z.looseObject({
    type: z.literal('@xstate.event'),
    ...common,
    event: eventType,
    sourceId: id.nullish(),
  }),
  z.looseObject({
    type: z.literal('@xstate.snapshot'),
    ...common,
    event: eventType,
    snapshot: z.record(z.string(), z.unknown()),
  }),
]);

/** One inspection event as received from a reporter, checked: the fields the viewer reads. */
export type InspectionMessage = z.output<typeof inspectionSchema>;

/**
 * Parses one untrusted WebSocket text frame in `@statelyai/inspect`'s format. Anything else (not
 * JSON, an unknown type, missing ids) gives `undefined`; it never throws.
 * @example parseInspection('{"type":"@xstate.event","sessionId":"x:1","event":{"type":"go"}}')
 */
export function parseInspection(text: string): InspectionMessage | undefined {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return undefined;
  }
  const parsed = inspectionSchema.safeParse(raw);
  return parsed.success ? parsed.data : undefined;
}
