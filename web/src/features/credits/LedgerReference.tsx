import type { LedgerEntryView } from '@astra/contracts';
import { chakra, DataList } from '@chakra-ui/react';
import { referenceParts } from './ledgerLabels';

/**
 * The payment provider's ids (checkout session, invoice, charge…) behind a disclosure: people
 * read the plain description; support asks for these.
 */
export function LedgerReference({ reference }: Pick<LedgerEntryView, 'reference'>) {
  const parts = referenceParts(reference);
  if (parts.length === 0) return null;
  return (
    <chakra.details fontSize="xs" color="fg.muted">
      <chakra.summary
        cursor="pointer"
        width="fit-content"
        rounded="sm"
        _focusVisible={{ outline: '2px solid', outlineColor: 'brand.focusRing' }}
      >
        Payment references
      </chakra.summary>
      <DataList.Root orientation="horizontal" size="sm" gap="1" pt="1">
        {parts.map(([label, id]) => (
          <DataList.Item key={label}>
            <DataList.ItemLabel minW="28">{label}</DataList.ItemLabel>
            <DataList.ItemValue fontFamily="mono" wordBreak="break-all">
              {id}
            </DataList.ItemValue>
          </DataList.Item>
        ))}
      </DataList.Root>
    </chakra.details>
  );
}
