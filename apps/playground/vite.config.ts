import { defineConfig } from 'vite';

// The page is built to static files (dist/) that `parley start --page` serves on the same origin
// as the services' bridges. The workspace packages are bundled from their TypeScript sources
// (`source`), in their browser builds (`browser`: WebCrypto, the fetch transport).
export default defineConfig({
  base: './',
  resolve: { conditions: ['source', 'browser', 'module', 'development|production'] },
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    reportCompressedSize: false,
    chunkSizeWarningLimit: 4_096,
    // Two pages: the playground (/) and the cases pages (/cases/, issue 24).
    rollupOptions: { input: { main: 'index.html', cases: 'cases/index.html' } },
  },
});
