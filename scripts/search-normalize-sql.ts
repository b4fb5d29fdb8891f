/** `npm run search:normalize-sql`: prints the SQL normalization functions for a migration. */
import { normalizeFunctionSql } from '../core/search/normalize-sql.ts';

process.stdout.write(normalizeFunctionSql());
