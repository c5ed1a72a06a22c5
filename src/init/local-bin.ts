/** The binary a project's script would run: its own node_modules/.bin copy. */
export const localBin = (bin: string): string => `node_modules/.bin/${bin}`;
