/** The version recorded in results files; kept equal to package.json's by a test. */
export const VERSION = '1.0.0';
