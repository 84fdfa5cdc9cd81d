import { msw } from 'msw/vite'
import { defineConfig } from 'vite'

export default defineConfig({
  // Serves MSW's worker script in `vite dev` and writes it next to the bundle in `vite build`,
  // always the one of the installed msw: nothing generated is committed.
  plugins: [msw({ mode: 'worker-only' })],
  // The mock rides in the bundle (this page exists to run against it): past Vite's 500 kB warning.
  build: { target: 'es2022', chunkSizeWarningLimit: 1000 },
})
