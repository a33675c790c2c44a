/**
 * The types of `import wasmUrl from 'edgeattest/edgeattest_bg.wasm'` under a bundler that
 * turns a file import into its URL (esbuild `--loader:.wasm=file`, Vite `?url`): pass it to
 * `init(wasmUrl)`.
 */
declare const wasmUrl: string;
export default wasmUrl;
