// wrangler.toml's Text rules hand these files to the worker as their text.
declare module '*.browser.js' {
  const text: string
  export default text
}
declare module '*.css' {
  const text: string
  export default text
}
