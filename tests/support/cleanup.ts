/** Setup file of every test file: its temp folders are removed once its tests are done (repo.ts). */
import { afterAll } from 'vitest';
import { removeTempDirs } from './repo.ts';

afterAll(removeTempDirs);
