import type { SiteInfo } from '@astra/contracts';
import { Alert, DataList, Link } from '@chakra-ui/react';
import { LoadingState } from '../../ui/LoadingState';
import { useGetSiteQuery } from '../site/siteApi';
import { LegalDocument } from './LegalDocument';

/** The operator's details as configured (`OPERATOR_*`); absent optional ones are left out. */
function detailsOf({ operator }: SiteInfo): [label: string, value: React.ReactNode][] {
  const rows: [string, React.ReactNode | null][] = [
    ['Company', operator.name],
    ['Address', operator.address.join(', ')],
    ['Represented by', operator.representative],
    [
      'E-mail',
      <Link key="email" href={`mailto:${operator.email}`}>
        {operator.email}
      </Link>,
    ],
    ['Commercial register', operator.register],
    ['VAT ID', operator.vatId],
  ];
  return rows.filter((row): row is [string, React.ReactNode] => row[1] !== null);
}

export default function ImpressumPage() {
  const { data: site, isError } = useGetSiteQuery();
  return (
    <LegalDocument
      title="Impressum"
      intro="Information about the operator of Astra, as required by law."
      sections={[
        {
          title: 'Operator',
          body: site ? (
            <>
              {site.developmentDefaults && (
                <Alert.Root status="warning">
                  <Alert.Indicator />
                  <Alert.Title>
                    This server runs with development stand-ins for the operator's details; the
                    operator sets the real ones before launch.
                  </Alert.Title>
                </Alert.Root>
              )}
              <DataList.Root orientation="horizontal">
                {detailsOf(site).map(([label, value]) => (
                  <DataList.Item key={label}>
                    <DataList.ItemLabel minW="40">{label}</DataList.ItemLabel>
                    <DataList.ItemValue>{value}</DataList.ItemValue>
                  </DataList.Item>
                ))}
              </DataList.Root>
            </>
          ) : isError ? (
            <Alert.Root status="error">
              <Alert.Indicator />
              <Alert.Title>The operator's details could not be loaded. Please reload.</Alert.Title>
            </Alert.Root>
          ) : (
            <LoadingState />
          ),
        },
      ]}
    />
  );
}
