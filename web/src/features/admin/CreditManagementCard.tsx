import { type AdminUser, adminMessages } from '@astra/contracts';
import {
  Button,
  Field,
  Heading,
  Input,
  NativeSelect,
  SimpleGrid,
  Stack,
  Text,
  Textarea,
} from '@chakra-ui/react';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { describeApiError } from '../../app/apiErrors';
import { useAppDispatch } from '../../app/hooks';
import { Surface } from '../../ui/Surface';
import { notifyError, notifySuccess } from '../../ui/toaster';
import { useDebouncedValue } from '../../ui/useDebouncedValue';
import { relockIfExpired, useAdjustCreditsMutation, useGetAdminUsersQuery } from './adminApi';
import { formatCount, newIdempotencyKey, parseWholeNumber } from './adminFormat';

/** A request from the user list: adjust this user's credits (the nonce repeats a request). */
export interface CreditTarget {
  user: AdminUser;
  nonce: number;
}

const userOption = (user: AdminUser) =>
  `${user.displayName} · ${user.email ?? 'no e-mail'} · ${formatCount(user.balance)} credits`;

/** Spec §2 "Credit Management": pick a user, a signed whole amount and a reason. */
export function CreditManagementCard({ target }: { target: CreditTarget | null }) {
  const [search, setSearch] = useState('');
  const debounced = useDebouncedValue(search.trim(), 300);
  const [selected, setSelected] = useState<AdminUser | null>(null);
  const [amount, setAmount] = useState('');
  const [reason, setReason] = useState('');
  const [errors, setErrors] = useState<{ user?: string; amount?: string; reason?: string }>({});
  const [lastResult, setLastResult] = useState<string | null>(null);
  const keyRef = useRef<string | null>(null);
  const amountRef = useRef<HTMLInputElement>(null);
  const cardRef = useRef<HTMLElement>(null);
  const { data: results, isFetching } = useGetAdminUsersQuery({ search: debounced, page: 1 });
  const [adjust, { isLoading }] = useAdjustCreditsMutation();
  const dispatch = useAppDispatch();

  // "Adjust credits" on a user: that user is picked and the amount field takes the focus.
  useEffect(() => {
    if (!target) return;
    setSelected(target.user);
    setErrors({});
    setLastResult(null);
    keyRef.current = null;
    cardRef.current?.scrollIntoView({ behavior: 'smooth', block: 'start' });
    amountRef.current?.focus({ preventScroll: true });
  }, [target]);

  // The selected user as the list last showed them (their balance after an adjustment).
  const fresh = results?.items.find((user) => user.id === selected?.id);
  const current = fresh ?? selected;
  const options = [
    ...(current && !results?.items.some((user) => user.id === current.id) ? [current] : []),
    ...(results?.items ?? []),
  ];

  // A different adjustment is a new request; the same one retried keeps its key.
  const edited = () => {
    keyRef.current = null;
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const parsed = parseWholeNumber(amount);
    const next: typeof errors = {};
    if (!current) next.user = 'Please choose a user';
    if (parsed === null) next.amount = adminMessages.invalidNumber;
    if (!reason.trim()) next.reason = 'Please enter a reason';
    setErrors(next);
    if (!current || parsed === null || !reason.trim()) {
      if (next.amount) notifyError(adminMessages.invalidNumber);
      return;
    }
    keyRef.current ??= newIdempotencyKey();
    try {
      const answer = await adjust({
        userId: current.id,
        amount: parsed,
        reason: reason.trim(),
        idempotencyKey: keyRef.current,
      }).unwrap();
      const message =
        answer.message ??
        (parsed > 0
          ? `Added ${parsed} credits successfully`
          : `Deducted ${-parsed} credits successfully`);
      notifySuccess(message);
      setLastResult(
        `${message}. ${current.displayName} now has ${formatCount(answer.remainingCredits)} credits.`,
      );
      setAmount('');
      setReason('');
      keyRef.current = null;
    } catch (error) {
      const info = describeApiError(error);
      // A refusal (not a lost connection) is final for this key: the next try is a new request.
      if (info.status !== 'network') keyRef.current = null;
      const fields = Object.fromEntries((info.fields ?? []).map((f) => [f.field, f.message]));
      if (fields.amount || fields.reason) {
        setErrors({ amount: fields.amount, reason: fields.reason });
      }
      setLastResult(null);
      notifyError(adminMessages.creditsFailed, info.message);
      const relock = relockIfExpired(error);
      if (relock) dispatch(relock);
    }
  };

  return (
    <Surface
      as="section"
      ref={cardRef}
      aria-labelledby="credit-management-heading"
      scrollMarginTop="24"
    >
      <Stack gap="1">
        <Heading as="h2" size="lg" id="credit-management-heading">
          Credit Management
        </Heading>
        <Text color="fg.muted" fontSize="sm">
          Add credits to a user, or deduct them with a negative amount.
        </Text>
      </Stack>
      <form onSubmit={submit} noValidate>
        <Stack gap="4">
          <SimpleGrid columns={{ base: 1, md: 2 }} gap="4">
            <Field.Root>
              <Field.Label>Find user</Field.Label>
              <Input
                type="search"
                name="credit-user-search"
                placeholder="Name or e-mail"
                value={search}
                onChange={(event) => setSearch(event.target.value)}
                maxLength={200}
                autoComplete="off"
              />
              <Field.HelperText>
                {isFetching
                  ? 'Searching...'
                  : results
                    ? `${formatCount(results.total)} ${results.total === 1 ? 'match' : 'matches'}${
                        results.total > results.items.length
                          ? `, first ${results.items.length} shown`
                          : ''
                      }`
                    : ' '}
              </Field.HelperText>
            </Field.Root>
            <Field.Root required invalid={Boolean(errors.user)}>
              <Field.Label>User</Field.Label>
              <NativeSelect.Root>
                <NativeSelect.Field
                  name="credit-user"
                  value={current?.id ?? ''}
                  onChange={(event) => {
                    setSelected(options.find((user) => user.id === event.target.value) ?? null);
                    setErrors((old) => ({ ...old, user: undefined }));
                    setLastResult(null);
                    edited();
                  }}
                >
                  <option value="">Choose a user</option>
                  {options.map((user) => (
                    <option key={user.id} value={user.id}>
                      {userOption(user)}
                    </option>
                  ))}
                </NativeSelect.Field>
                <NativeSelect.Indicator />
              </NativeSelect.Root>
              <Field.ErrorText>{errors.user}</Field.ErrorText>
            </Field.Root>
            <Field.Root required invalid={Boolean(errors.amount)}>
              <Field.Label>Amount</Field.Label>
              <Input
                ref={amountRef}
                name="credit-amount"
                inputMode="numeric"
                placeholder="e.g. 50 or -20"
                value={amount}
                autoComplete="off"
                onChange={(event) => {
                  setAmount(event.target.value);
                  setErrors((old) => ({ ...old, amount: undefined }));
                  edited();
                }}
              />
              {errors.amount ? (
                <Field.ErrorText>{errors.amount}</Field.ErrorText>
              ) : (
                <Field.HelperText>A negative amount deducts.</Field.HelperText>
              )}
            </Field.Root>
            <Field.Root required invalid={Boolean(errors.reason)}>
              <Field.Label>Reason</Field.Label>
              <Textarea
                name="credit-reason"
                rows={2}
                maxLength={500}
                value={reason}
                onChange={(event) => {
                  setReason(event.target.value);
                  setErrors((old) => ({ ...old, reason: undefined }));
                  edited();
                }}
              />
              <Field.ErrorText>{errors.reason}</Field.ErrorText>
            </Field.Root>
          </SimpleGrid>
          <Stack direction={{ base: 'column', sm: 'row' }} align={{ sm: 'center' }} gap="3">
            <Button type="submit" loading={isLoading} loadingText="Updating...">
              Update Credits
            </Button>
            <Text role="status" fontSize="sm" color="fg.success">
              {lastResult}
            </Text>
          </Stack>
        </Stack>
      </form>
    </Surface>
  );
}
