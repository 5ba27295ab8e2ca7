import type { FreeAllotmentEvent } from '@astra/contracts';
import type { Decider } from '../decider.ts';

/** Gmail ignores dots in the local part, and googlemail.com is the same mailbox. */
const GMAIL_DOMAINS = new Set(['gmail.com', 'googlemail.com']);

/**
 * The mailbox an address delivers to, as the free allotment counts them: trimmed and
 * lower-cased, without a plus tag (`a+promo@example.com` → `a@example.com`, every domain), and
 * for Gmail without dots in the local part and on `gmail.com` (`A.B@googlemail.com` →
 * `ab@gmail.com`). Only the free allotment's claim uses it: the address of the user and of the
 * e-mail registry stays as it was given.
 */
export const freeAllotmentMailbox = (email: string) => {
  const address = email.trim().toLowerCase();
  const at = address.lastIndexOf('@');
  if (at <= 0) return address;
  let local = address.slice(0, at);
  let domain = address.slice(at + 1);
  const plus = local.indexOf('+');
  if (plus > 0) local = local.slice(0, plus);
  if (GMAIL_DOMAINS.has(domain)) {
    domain = 'gmail.com';
    local = local.replaceAll('.', '');
  }
  return local ? `${local}@${domain}` : address;
};

/**
 * The addresses whose free-allotment streams decide an address's claim: the mailbox, and first
 * the trimmed, lower-cased address itself when it differs, because claims made before mailboxes
 * were counted were keyed by it (`legacy`). A claim found there counts for the mailbox.
 */
export const freeAllotmentKeys = (email: string) => {
  const mailbox = freeAllotmentMailbox(email);
  const legacy = email.trim().toLowerCase();
  return { mailbox, legacy: legacy === mailbox ? null : legacy };
};

/** The free allotment of one mailbox: claimed once, ever, by the first account. */
export interface FreeAllotment {
  claimedBy: string | null;
  amount: number;
}

export type FreeAllotmentCommand = { type: 'ClaimFreeAllotment'; userId: string; amount: number };

export const freeAllotmentDecider: Decider<
  FreeAllotment,
  FreeAllotmentCommand,
  FreeAllotmentEvent
> = {
  initialState: () => ({ claimedBy: null, amount: 0 }),
  evolve: (_state, event) => ({ claimedBy: event.data.userId, amount: event.data.amount }),
  // A second claim changes nothing: whoever claimed first keeps it (deleted accounts included).
  decide: (command, state) =>
    state.claimedBy
      ? []
      : [
          {
            type: 'FreeAllotmentClaimed',
            data: { userId: command.userId, amount: command.amount },
          },
        ],
};
