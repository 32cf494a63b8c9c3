declare module '*.ttf' {
  const bytes: ArrayBuffer
  export default bytes
}
