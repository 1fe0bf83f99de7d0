import { z } from 'zod';

const error = 'must be a letter followed by up to 63 letters, digits, _ or -';

/** A stage id, stage kind or machine id, as the pipeline and the agent accept them. */
export const nameSchema = z.string({ error }).regex(/^[A-Za-z][\w-]{0,63}$/, { error });
