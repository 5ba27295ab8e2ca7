import { FEEDBACK_MAX_LENGTH } from '@astra/contracts';
import { Button, Field, Heading, Stack, Text, Textarea } from '@chakra-ui/react';
import { Send } from 'lucide-react';
import { type SyntheticEvent, useState } from 'react';
import { Surface } from '../../ui/Surface';
import { TextLink } from '../../ui/TextLink';
import { notifyError, notifySuccess } from '../../ui/toaster';
import { useCurrentUser } from '../auth/authApi';
import { useSendFeedbackMutation } from './feedbackApi';

/** The About page's feedback form; /about#feedback scrolls here. */
export function FeedbackSection() {
  const { me } = useCurrentUser();
  const [message, setMessage] = useState('');
  const [sendFeedback, { isLoading }] = useSendFeedbackMutation();
  const trimmed = message.trim();

  const submit = async (event: SyntheticEvent) => {
    event.preventDefault();
    if (!trimmed) return;
    try {
      await sendFeedback({ message: trimmed }).unwrap();
      notifySuccess('Thank you for your feedback!');
      setMessage('');
    } catch {
      notifyError('Failed to submit feedback. Please try again.');
    }
  };

  return (
    <Surface
      as="section"
      id="feedback"
      aria-labelledby="feedback-heading"
      scrollMarginTop="24"
      gap="4"
    >
      <Heading as="h2" id="feedback-heading" textStyle="sectionTitle">
        Send Us Feedback
      </Heading>
      {me ? (
        <Stack as="form" onSubmit={submit} gap="3">
          <Text color="fg.muted">
            Tell us what you love, what confused you or what you would like to see next. A real
            person reads every message.
          </Text>
          <Field.Root>
            <Field.Label>Your feedback</Field.Label>
            <Textarea
              name="message"
              rows={5}
              maxLength={FEEDBACK_MAX_LENGTH}
              value={message}
              onChange={(event) => setMessage(event.target.value)}
            />
            <Field.HelperText>
              {message.length} / {FEEDBACK_MAX_LENGTH} characters
            </Field.HelperText>
          </Field.Root>
          <Button type="submit" alignSelf="flex-start" disabled={!trimmed} loading={isLoading}>
            <Send aria-hidden />
            Submit Feedback
          </Button>
        </Stack>
      ) : (
        <Text>
          Please sign in to submit feedback.{' '}
          <TextLink to="/auth?returnUrl=%2Fabout%23feedback">Sign in</TextLink>
        </Text>
      )}
    </Surface>
  );
}
