import { Refusal } from '@rtbench/core/usage-error';

/** A folder that cannot hold this matrix, or a matrix refused, said in one line (the CLI's usage error). */
export class MatrixRefused extends Refusal {
  override readonly name = 'MatrixRefused';
}
