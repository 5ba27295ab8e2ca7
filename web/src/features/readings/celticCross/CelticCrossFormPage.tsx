import { CELTIC_CROSS_QUESTION_MAX_CHARACTERS, readingMessages } from '@astra/contracts';
import { QuestionReadingFormPage } from '../form/QuestionReadingFormPage';

export default function CelticCrossFormPage() {
  return (
    <QuestionReadingFormPage
      kind="tarot-celtic-cross"
      title="Tarot Celtic Cross"
      intro="The ten-card Celtic Cross looks at a big question from every side: its roots, what crosses it, what you hope and fear, and where it may lead."
      heading="Ask the Celtic Cross"
      submitLabel="Reveal the Celtic Cross"
      missingMessage={readingMessages.allRequiredFields}
      limit={{
        // The server trims before it counts; so does the counter.
        count: (question) => question.trim().length,
        max: CELTIC_CROSS_QUESTION_MAX_CHARACTERS,
        unit: 'characters',
        message: readingMessages.questionTooLong,
      }}
    />
  );
}
