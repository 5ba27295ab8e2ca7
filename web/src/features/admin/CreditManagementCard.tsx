import { type AdminUser, adminMessages } from '@astra/contracts';
import {
  Box,
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
import { skipToken } from '@reduxjs/toolkit/query/react';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { describeApiError } from '../../app/apiErrors';
import { useAppDispatch } from '../../app/hooks';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { Surface } from '../../ui/Surface';
import { notifyError, notifySuccess } from '../../ui/toaster';
import { useDebouncedValue } from '../../ui/useDebouncedValue';
import {
  adminApi,
  relockIfExpired,
  useAdjustCreditsMutation,
  useGetAdminUserQuery,
  useGetAdminUsersQuery,
} from './adminApi';
import { formatCount, newIdempotencyKey, parseWholeNumber } from './adminFormat';

/** A request from the user list: adjust this user's credits (the nonce repeats a request). */
export interface CreditTarget {
  user: AdminUser;
  nonce: number;
}

/** An adjustment the admin is asked to confirm, on the balance they were shown. */
interface PendingAdjustment {
  userId: string;
  displayName: string;
  email: string | null;
  amount: number;
  reason: string;
  balance: number;
}

/** Options name the user only: a balance is shown once, read fresh, for the chosen customer. */
const userOption = (user: AdminUser) => `${user.displayName} · ${user.email ?? 'no e-mail'}`;

const credits = (n: number) => `${formatCount(n)} ${n === 1 ? 'credit' : 'credits'}`;

/** "Add 5 credits to Bob Baker (bob@example.com): 12 → 17", or "Deduct 2 credits from …". */
function describeAdjustment(adjustment: PendingAdjustment) {
  const who = adjustment.email
    ? `${adjustment.displayName} (${adjustment.email})`
    : adjustment.displayName;
  const change =
    adjustment.amount > 0
      ? `Add ${credits(adjustment.amount)} to ${who}`
      : `Deduct ${credits(-adjustment.amount)} from ${who}`;
  return `${change}: ${formatCount(adjustment.balance)} → ${formatCount(adjustment.balance + adjustment.amount)}`;
}

/** The balance now, as a `409 balance_changed` tells it. */
const balanceNowOf = (error: unknown): number | null => {
  const data = (error as { data?: { balance?: unknown } } | null)?.data;
  return typeof data?.balance === 'number' ? data.balance : null;
};

/**
 * Spec §2 "Credit Management": a signed whole amount and a reason for one customer, shown by
 * name, e-mail and a balance read fresh; a new search drops the choice. Submitting asks first,
 * stating the change on that balance, and the server refuses if the balance moved meanwhile.
 */
export function CreditManagementCard({ target }: { target: CreditTarget | null }) {
  const [search, setSearch] = useState('');
  const debounced = useDebouncedValue(search.trim(), 300);
  const [selected, setSelected] = useState<AdminUser | null>(null);
  const [amount, setAmount] = useState('');
  const [reason, setReason] = useState('');
  const [errors, setErrors] = useState<{ user?: string; amount?: string; reason?: string }>({});
  const [lastResult, setLastResult] = useState<string | null>(null);
  const [pending, setPending] = useState<PendingAdjustment | null>(null);
  /** Why the confirmation asks again (the balance moved), in the server's words. */
  const [changed, setChanged] = useState<string | null>(null);
  const keyRef = useRef<string | null>(null);
  const amountRef = useRef<HTMLInputElement>(null);
  const cardRef = useRef<HTMLElement>(null);
  const { data: results, isFetching } = useGetAdminUsersQuery({ search: debounced, page: 1 });
  // The chosen customer, read again whenever chosen: never a balance from an older list.
  const { currentData: customer, isError: customerFailed } = useGetAdminUserQuery(
    selected?.id ?? skipToken,
    { refetchOnMountOrArgChange: true },
  );
  const [adjust, { isLoading }] = useAdjustCreditsMutation();
  const dispatch = useAppDispatch();

  // A different adjustment is a new request; the same one retried keeps its key.
  const edited = () => {
    keyRef.current = null;
  };

  const choose = (user: AdminUser | null) => {
    setSelected(user);
    setErrors((old) => ({ ...old, user: undefined }));
    setLastResult(null);
    edited();
  };

  // "Adjust credits" on a user: that user is chosen and the amount field takes the focus.
  useEffect(() => {
    if (!target) return;
    setSelected(target.user);
    // Chosen again: their balance is read again as well.
    dispatch(adminApi.util.invalidateTags([{ type: 'AdminUser', id: target.user.id }]));
    setErrors({});
    setLastResult(null);
    keyRef.current = null;
    cardRef.current?.scrollIntoView({ behavior: 'smooth', block: 'start' });
    amountRef.current?.focus({ preventScroll: true });
  }, [target, dispatch]);

  const shown = customer ?? selected;
  const options = [
    ...(shown && !results?.items.some((user) => user.id === shown.id) ? [shown] : []),
    ...(results?.items ?? []),
  ];

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = parseWholeNumber(amount);
    const next: typeof errors = {};
    if (!selected) next.user = 'Please choose a user';
    else if (!customer) next.user = 'The balance is still loading. Please wait a moment.';
    if (parsed === null) next.amount = adminMessages.invalidNumber;
    if (!reason.trim()) next.reason = 'Please enter a reason';
    setErrors(next);
    if (!customer || !selected || parsed === null || !reason.trim()) {
      if (next.amount) notifyError(adminMessages.invalidNumber);
      return;
    }
    setChanged(null);
    setLastResult(null);
    setPending({
      userId: customer.id,
      displayName: customer.displayName,
      email: customer.email,
      amount: parsed,
      reason: reason.trim(),
      balance: customer.balance,
    });
  };

  const confirm = async () => {
    if (!pending) return;
    keyRef.current ??= newIdempotencyKey();
    try {
      const answer = await adjust({
        userId: pending.userId,
        amount: pending.amount,
        reason: pending.reason,
        expectedBalance: pending.balance,
        idempotencyKey: keyRef.current,
      }).unwrap();
      const message =
        answer.message ??
        (pending.amount > 0
          ? `Added ${pending.amount} credits successfully`
          : `Deducted ${-pending.amount} credits successfully`);
      notifySuccess(message);
      setLastResult(
        `${message}. ${pending.displayName} now has ${credits(answer.remainingCredits)}.`,
      );
      setAmount('');
      setReason('');
      setPending(null);
      setChanged(null);
      keyRef.current = null;
    } catch (error) {
      const info = describeApiError(error);
      // A refusal (not a lost connection) is final for this key: the next try is a new request.
      if (info.status !== 'network') keyRef.current = null;
      const balanceNow = info.code === 'balance_changed' ? balanceNowOf(error) : null;
      if (balanceNow !== null) {
        // Asked again, on the balance as it is now.
        setPending({ ...pending, balance: balanceNow });
        setChanged(info.message ?? 'The balance changed. Please check the adjustment again.');
        return;
      }
      setPending(null);
      setChanged(null);
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
                onChange={(event) => {
                  setSearch(event.target.value);
                  // A new search is a new choice: the customer chosen before is let go.
                  if (selected) choose(null);
                }}
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
                      }${selected ? '' : ': choose one under User'}`
                    : ' '}
              </Field.HelperText>
            </Field.Root>
            <Field.Root required invalid={Boolean(errors.user)}>
              <Field.Label>User</Field.Label>
              <NativeSelect.Root>
                <NativeSelect.Field
                  name="credit-user"
                  value={selected?.id ?? ''}
                  onChange={(event) =>
                    choose(options.find((user) => user.id === event.target.value) ?? null)
                  }
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
          </SimpleGrid>
          <Box
            data-testid="credit-customer"
            aria-live="polite"
            borderWidth="1px"
            borderRadius="md"
            px="4"
            py="3"
            bg={shown ? 'bg.subtle' : undefined}
          >
            {shown ? (
              <Stack gap="0.5">
                <Text
                  fontSize="xs"
                  color="fg.muted"
                  textTransform="uppercase"
                  fontWeight="semibold"
                >
                  Adjusting the credits of
                </Text>
                <Text fontWeight="semibold" overflowWrap="anywhere">
                  {shown.displayName}
                </Text>
                <Text fontSize="sm" overflowWrap="anywhere">
                  {shown.email ?? 'No e-mail'}
                </Text>
                <Text fontSize="sm">
                  {customer
                    ? `Current balance: ${credits(customer.balance)}`
                    : customerFailed
                      ? 'The balance could not be loaded.'
                      : 'Loading the balance...'}
                </Text>
              </Stack>
            ) : (
              <Text fontSize="sm" color="fg.muted">
                No user chosen. Find one and choose them under User.
              </Text>
            )}
          </Box>
          <SimpleGrid columns={{ base: 1, md: 2 }} gap="4">
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

      <ConfirmDialog
        open={Boolean(pending)}
        onOpenChange={(open) => {
          if (open || isLoading) return;
          setPending(null);
          setChanged(null);
        }}
        title="Confirm credit adjustment"
        cancelLabel="Cancel"
        confirmLabel="Confirm"
        busyLabel="Updating..."
        busy={isLoading}
        onConfirm={() => void confirm()}
        confirmColorPalette={pending && pending.amount < 0 ? 'red' : 'brand'}
      >
        {changed && (
          <Text color="fg.warning" fontWeight="semibold">
            {changed}
          </Text>
        )}
        {pending && (
          <>
            <Text fontWeight="semibold" overflowWrap="anywhere" data-testid="credit-confirmation">
              {describeAdjustment(pending)}
            </Text>
            <Text fontSize="sm" color="fg.muted" overflowWrap="anywhere">
              Reason: {pending.reason}
            </Text>
          </>
        )}
      </ConfirmDialog>
    </Surface>
  );
}
