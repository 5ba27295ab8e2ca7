import type { LedgerEntryView } from '@astra/contracts';
import { Text } from '@chakra-ui/react';
import { referenceParts } from './ledgerLabels';

/** The payment's outside ids (checkout session, invoice, charge…), for support questions. */
export function LedgerReference({ reference }: Pick<LedgerEntryView, 'reference'>) {
  const parts = referenceParts(reference);
  if (parts.length === 0) return null;
  return (
    <Text fontFamily="mono" fontSize="xs" color="fg.muted" wordBreak="break-all">
      {parts.map(([label, id], index) => (
        <span key={label}>
          {index > 0 && ' · '}
          {label}: {id}
        </span>
      ))}
    </Text>
  );
}
