/** One locale's server messages, served by ./vite-plugin.ts. */
declare module 'virtual:server-messages/*' {
  const messages: Record<string, string>;
  export default messages;
}
