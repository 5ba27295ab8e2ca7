/** React 19 hoists <title> into <head>; every page names itself for tabs and screen readers. */
export function PageTitle({ children }: { children: string }) {
  return <title>{`${children} · Astra`}</title>;
}
