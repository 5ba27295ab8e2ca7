import type { StripeEvent } from '@astra/contracts';
import { describe, it } from 'vitest';
import { stripeEventDecider } from '../src/index.ts';
import { deciderSpecification } from './deciderSpecification.ts';

const given = deciderSpecification(stripeEventDecider);
const record = {
  eventId: 'evt_1',
  eventType: 'invoice.paid',
  objectId: 'in_1',
  userId: 'u1',
  outcome: 'renewed',
};
const processed: StripeEvent = { type: 'StripeEventProcessed', data: record };

describe('a Stripe event', () => {
  it('is recorded once: a redelivery records nothing', () => {
    given([])
      .when({ type: 'RecordStripeEvent', ...record })
      .then([processed]);
    given([processed])
      .when({ type: 'RecordStripeEvent', ...record, outcome: 'month already granted' })
      .thenNothingHappens();
  });
});
