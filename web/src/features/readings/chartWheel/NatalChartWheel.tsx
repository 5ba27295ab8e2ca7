import { Stack, Text } from '@chakra-ui/react';
import { memo, useDeferredValue, useMemo, useState } from 'react';
import { AspectLegend } from './AspectLegend';
import { ChartWheel } from './ChartWheel';
import { wheelModel, wheelSummary } from './chartModel';
import { PositionsTable } from './PositionsTable';

/**
 * The wheel, its legend, the label of the point in focus, and the positions as a table. Memoized:
 * the page around it renders again at every piece of the text while the report is written.
 */
export const NatalChartWheel = memo(function NatalChartWheel({
  chart,
  aspects,
}: {
  chart: unknown;
  aspects: unknown;
}) {
  const model = useMemo(() => wheelModel(chart, aspects), [chart, aspects]);
  const [activeKey, setActiveKey] = useState<string | null>(null);
  // The wheel on screen first; its legend and the table of positions (many rows) in the render
  // right after.
  const withDetails = useDeferredValue(true, false);
  if (!model) {
    return <Text color="fg.muted">The chart drawing is not available for this reading.</Text>;
  }
  const active = model.points.find((point) => point.key === activeKey);

  return (
    <Stack gap="4">
      <ChartWheel
        model={model}
        summary={wheelSummary(model)}
        activeKey={activeKey}
        onActiveChange={setActiveKey}
      />
      <Text textAlign="center" fontWeight="medium" fontSize="sm" minH="6" aria-hidden>
        {active
          ? active.label
          : 'Hover over a symbol, or move through the table, to see its position.'}
      </Text>
      {withDetails && (
        <>
          <AspectLegend />
          <PositionsTable
            points={model.points}
            activeKey={activeKey}
            onActiveChange={setActiveKey}
          />
        </>
      )}
    </Stack>
  );
});
