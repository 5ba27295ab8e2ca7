import { List, Text } from '@chakra-ui/react';
import { TextLink } from '../../ui/TextLink';
import { SupportEmailLink } from '../pricing/SupportEmailLink';
import { LegalDocument, type LegalSection } from './LegalDocument';

const RETENTION = [
  'Payment records: 10 years, as tax law requires.',
  'Analytics data: 2 years, after which it is anonymised.',
  'Support correspondence: 3 years.',
  'Voice conversation recordings: at most 30 days.',
  'The e-mails we send you (receipts and account messages): their text for 30 days after sending.',
  'Account data (profile, birth details, readings, feedback): until you delete your account or ask us to delete it.',
];

/** What outlives an account's deletion, and why (see the section below). */
const KEPT_AFTER_DELETION = [
  'Payments, for 10 years as tax law requires: amount, currency, date and the payment provider’s reference numbers. No name or address.',
  'The usage log: the kind of each reading, its cost in credits and its date. No question, name or reading text.',
  'A keyed fingerprint of your e-mail address (an HMAC under a secret key of our server), so that free credits are not given twice: if you sign up again with the same address, your free credits will not reset. Your address cannot be read back from it.',
];

const SECTIONS: LegalSection[] = [
  {
    title: 'Who is responsible',
    body: (
      <Text>
        The controller of your personal data is the operator of Astra named in our Impressum.
      </Text>
    ),
  },
  {
    title: 'How you sign in',
    body: (
      <Text>
        Astra uses third-party single sign-on (for example Google). The provider tells us your name,
        e-mail address and, if you have one, your profile picture. We never see or store your
        password.
      </Text>
    ),
  },
  {
    title: 'What we collect and why',
    body: (
      <Text>
        We process the birth details you enter, your readings, your credit history, feedback you
        send and, if you use the voice guide, your voice conversations. We use them to create and
        store your readings, run your account and credits, handle payments and support, and improve
        Astra. Payments are processed by our payment provider; we do not store card numbers.
      </Text>
    ),
  },
  {
    title: 'How long we keep data',
    body: (
      <List.Root ps="5" gap="1">
        {RETENTION.map((line) => (
          <List.Item key={line}>{line}</List.Item>
        ))}
      </List.Root>
    ),
  },
  {
    title: 'What is kept after you delete your account',
    body: (
      <>
        <Text>
          Your personal data (e-mail, names, picture, birth details, questions, reading texts and
          feedback) is encrypted under a key that belongs to you alone. Deleting your account
          destroys that key, so nobody can read that data again, not even us. Only this is kept:
        </Text>
        <List.Root ps="5" gap="1">
          {KEPT_AFTER_DELETION.map((line) => (
            <List.Item key={line}>{line}</List.Item>
          ))}
        </List.Root>
      </>
    ),
  },
  {
    title: 'Your rights',
    body: (
      <>
        <Text>
          You may ask for access to, correction, deletion or restriction of your data, object to its
          processing, and receive it in a portable format. You may also complain to a data
          protection supervisory authority.
        </Text>
        <Text>
          To get a copy of everything we hold about you, use “Download my data” on your{' '}
          <TextLink to="/profile">profile page</TextLink>. To have it deleted, delete your account
          there, or write to <SupportEmailLink />.
        </Text>
      </>
    ),
  },
  {
    title: 'Security',
    body: (
      <Text>
        Data travels encrypted, sessions use secure cookies that scripts cannot read, and access to
        personal data is limited to the people who need it to run the service. One more cookie holds
        your device’s time zone (such as Europe/Paris), so that the pages we send show dates in your
        time; it is never stored with your account.
      </Text>
    ),
  },
];

export default function PrivacyPage() {
  return (
    <LegalDocument
      title="Privacy Policy"
      intro="This policy explains what personal data Astra processes, why, for how long, and what your rights are."
      sections={SECTIONS}
    />
  );
}
