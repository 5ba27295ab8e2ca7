import { Text } from '@chakra-ui/react';
import { currencyLabel } from '../pricing/priceFormat';
import { useConfiguredCurrency } from '../pricing/pricingApi';
import { LegalDocument, type LegalSection } from './LegalDocument';

/**
 * The terms' sections. Prices and refunds are written in the one currency the server is
 * configured with (GET /api/pricing), never a currency typed here that could contradict it.
 */
const sections = (currency: string | null): LegalSection[] => [
  {
    title: 'What Astra is',
    body: (
      <Text>
        Astra provides astrology, tarot and numerology readings and an AI voice guide to talk them
        through. The service is for entertainment only. Readings are not medical, legal, financial
        or psychological advice, and you should not rely on them for such decisions.
      </Text>
    ),
  },
  {
    title: 'Who may use Astra',
    body: (
      <Text>
        You must be at least 13 years old to use Astra. If you are under 18, you may use Astra only
        with the permission of a parent or legal guardian, who accepts these terms on your behalf.
      </Text>
    ),
  },
  {
    title: 'Your account',
    body: (
      <Text>
        You sign in through a third-party single sign-on provider (for example your Google account).
        Keep access to that account secure: whoever controls it can use your Astra account. You can
        delete your Astra account at any time from your profile.
      </Text>
    ),
  },
  {
    title: 'Credits, prices and payment',
    body: (
      <Text>
        Readings are paid for with credits. The credit cost of each reading is shown before you
        spend. Credits are sold as one-time packs or as monthly subscriptions. All prices are in{' '}
        {currency ? currencyLabel(currency) : 'the one currency shown on our pricing page'} and
        include applicable taxes.
      </Text>
    ),
  },
  {
    title: 'Subscriptions and renewal',
    body: (
      <Text>
        Subscriptions renew automatically each month unless you cancel at least 24 hours before the
        renewal date. After cancelling you keep access until the end of the period you have paid
        for.
      </Text>
    ),
  },
  {
    title: 'Refunds',
    body: (
      <Text>
        Refunds are given only for technical defects, for example when a reading could not be
        delivered and the credits were not returned automatically. Approved refunds are paid within
        14 days, in {currency ? currencyLabel(currency) : 'the currency of our prices'}, the
        currency you paid in.
      </Text>
    ),
  },
  {
    title: 'Right of withdrawal (EU)',
    body: (
      <Text>
        If you are a consumer in the European Union you may withdraw from a purchase within 14 days
        without giving a reason, unless you expressly agreed that we begin providing the service
        before the end of that period and acknowledged that you thereby waive your right of
        withdrawal.
      </Text>
    ),
  },
  {
    title: 'Price changes',
    body: (
      <Text>
        We will tell you about price changes at least 30 days before they take effect. For
        subscriptions, a new price applies from the first renewal after that notice, and you may
        cancel before then.
      </Text>
    ),
  },
  {
    title: 'Voice conversations',
    body: (
      <Text>
        Recordings of voice conversations with the AI guide are kept for at most 30 days and then
        deleted.
      </Text>
    ),
  },
  {
    title: 'Liability',
    body: (
      <Text>
        Our total liability to you is limited to the fees you paid to Astra in the 12 months before
        the event giving rise to the claim. This limit does not apply where the law does not allow
        it to, such as for intent, gross negligence or injury to life, body or health.
      </Text>
    ),
  },
  {
    title: 'Changes and contact',
    body: (
      <Text>
        We may update these terms; the date above shows the latest revision, and we will tell you
        about material changes in advance. Questions? Contact us using the details in our Impressum.
      </Text>
    ),
  },
];

export default function TermsPage() {
  const currency = useConfiguredCurrency();
  return (
    <LegalDocument
      title="Terms of Service"
      intro="These terms govern your use of Astra. Please read them carefully; by using Astra you agree to them."
      sections={sections(currency)}
    />
  );
}
