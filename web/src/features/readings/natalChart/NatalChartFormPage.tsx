import { readingMessages } from '@astra/contracts';
import { Alert } from '@chakra-ui/react';
import { useState } from 'react';
import { notifyFormError } from '../../../ui/toaster';
import { BirthDataFields } from '../form/BirthDataFields';
import {
  birthDataFromProfile,
  birthDataIsComplete,
  birthDataToRequest,
  EMPTY_BIRTH_DATA,
} from '../form/birthDataDraft';
import { GenerateButton } from '../form/GenerateButton';
import { ReadingForm } from '../form/ReadingForm';
import { ReadingFormPage } from '../form/ReadingFormPage';
import { useGenerateReading } from '../form/useGenerateReading';

export const NATAL_SUBMIT_LABEL = 'Generate My Natal Chart';

export default function NatalChartFormPage() {
  const [draft, setDraft] = useState(EMPTY_BIRTH_DATA);
  const { generate, generating, cost, fieldErrors, clearFieldErrors } =
    useGenerateReading('natal-chart');
  const complete = birthDataIsComplete(draft);
  // Nothing is missing yet on a blank form: the warning waits for input or a first attempt.
  const [attempted, setAttempted] = useState(false);
  const started = attempted || draft !== EMPTY_BIRTH_DATA;

  const submit = () => {
    setAttempted(true);
    if (!complete) {
      notifyFormError('Missing birth information', readingMessages.missingBirthInformation);
      return;
    }
    void generate({ kind: 'natal-chart', body: birthDataToRequest(draft) });
  };

  return (
    <ReadingFormPage
      slug="natal-chart"
      title="Natal Birth Chart"
      intro="Your chart is the sky at the moment you were born. Enter your birth date, exact time and place; the time sets your rising sign and houses."
      generating={generating}
    >
      <ReadingForm
        heading="Your Birth Details"
        description="All fields are required."
        onImport={(me) => {
          const imported = birthDataFromProfile(me, draft);
          if (imported) setDraft(imported);
          return imported !== null;
        }}
        onSubmit={submit}
      >
        <BirthDataFields
          value={draft}
          onChange={(next) => {
            setDraft(next);
            clearFieldErrors();
          }}
          errors={fieldErrors}
        />
        {!complete && started && (
          <Alert.Root status="warning" role="status">
            <Alert.Indicator />
            <Alert.Content>
              <Alert.Title>Missing birth information</Alert.Title>
              <Alert.Description>{readingMessages.missingBirthInformation}</Alert.Description>
            </Alert.Content>
          </Alert.Root>
        )}
        <GenerateButton label={NATAL_SUBMIT_LABEL} cost={cost} disabled={!complete} />
      </ReadingForm>
    </ReadingFormPage>
  );
}
