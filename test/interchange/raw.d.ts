/** Fixture files read as text by Vite's `?raw` suffix (workerd has no file system to read them at run time). */
declare module "*?raw" {
  const text: string;
  export default text;
}
