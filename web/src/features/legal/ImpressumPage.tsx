import { Alert, DataList } from '@chakra-ui/react';
import { LegalDocument } from './LegalDocument';

/** Placeholder operator details: to be replaced with the real company's before launch. */
const DETAILS: [label: string, value: string][] = [
  ['Company', '[Placeholder] Astra Example GmbH'],
  ['Address', '[Placeholder] Example Street 1, 10115 Berlin, Germany'],
  ['Represented by', '[Placeholder] Managing Director Jane Doe'],
  ['E-mail', '[Placeholder] hello@astra.example'],
  ['Commercial register', '[Placeholder] Local court Berlin, HRB 000000'],
  ['VAT ID', '[Placeholder] DE000000000'],
];

export default function ImpressumPage() {
  return (
    <LegalDocument
      title="Impressum"
      intro="Information about the operator of Astra, as required by law."
      sections={[
        {
          title: 'Operator',
          body: (
            <>
              <Alert.Root status="warning">
                <Alert.Indicator />
                <Alert.Title>
                  These company details are placeholders and will be replaced with the operator's
                  registered details before launch.
                </Alert.Title>
              </Alert.Root>
              <DataList.Root orientation="horizontal">
                {DETAILS.map(([label, value]) => (
                  <DataList.Item key={label}>
                    <DataList.ItemLabel minW="40">{label}</DataList.ItemLabel>
                    <DataList.ItemValue>{value}</DataList.ItemValue>
                  </DataList.Item>
                ))}
              </DataList.Root>
            </>
          ),
        },
      ]}
    />
  );
}
