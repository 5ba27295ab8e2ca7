import { List, Text } from '@chakra-ui/react';
import { LegalDocument, type LegalSection } from './LegalDocument';

const RETENTION = [
  'Payment records: 10 years, as tax law requires.',
  'Analytics data: 2 years, after which it is anonymised.',
  'Support correspondence: 3 years.',
  'Voice conversation recordings: at most 30 days.',
  'Account data (profile, birth details, readings): until you ask us to delete it.',
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
    title: 'Your rights',
    body: (
      <Text>
        You may ask for access to, correction, deletion or restriction of your data, object to its
        processing, and receive it in a portable format. You may also complain to a data protection
        supervisory authority. You can delete your account yourself from your profile.
      </Text>
    ),
  },
  {
    title: 'Security',
    body: (
      <Text>
        Data travels encrypted, sessions use secure cookies that scripts cannot read, and access to
        personal data is limited to the people who need it to run the service.
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
