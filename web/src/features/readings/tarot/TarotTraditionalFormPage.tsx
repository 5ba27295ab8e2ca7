import { countWords, readingMessages, TAROT_QUESTION_MAX_WORDS } from '@astra/contracts';
import { QuestionReadingFormPage } from '../form/QuestionReadingFormPage';

export default function TarotTraditionalFormPage() {
  return (
    <QuestionReadingFormPage
      kind="tarot-traditional"
      title="Tarot Traditional"
      intro="Ask a question and draw three cards: your past, your present and your future, read around what you asked."
      heading="Ask the Cards"
      submitLabel="Draw My Cards"
      missingMessage={readingMessages.nameAndQuestion}
      limit={{
        count: countWords,
        max: TAROT_QUESTION_MAX_WORDS,
        unit: 'words',
        message: readingMessages.questionTooManyWords,
      }}
      disableWhenTooLong
    />
  );
}
