/// <reference types="vitest/config" />
import { defineConfig } from "vite";
import react from "@vitejs/plugin-react";

export default defineConfig({
  plugins: [react()],
  // Tauri serves the built files itself; relative paths work under tauri://localhost.
  base: "./",
  clearScreen: false,
  build: {
    outDir: "dist",
    emptyOutDir: true,
    target: "es2022",
    // The chat window, and the character's own small page.
    rollupOptions: { input: { main: "index.html", character: "character.html" } },
  },
  test: {
    environment: "jsdom",
    setupFiles: ["./src/test/setup.ts"],
    include: ["src/**/*.test.{ts,tsx}"],
    // Vitest leaves one core free by default, which on a two-core machine is half of it.
    maxWorkers: "100%",
    // Waits inside a test may take up to 5 s each on a busy machine (src/test/setup.ts).
    testTimeout: 20000,
  },
});
