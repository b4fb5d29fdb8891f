/** `npm run search:normalize-sql`: prints the SQL normalization functions for a migration. */
import { normalizeFunctionSql } from '../database-search/normalize-sql.ts';

process.stdout.write(normalizeFunctionSql());
