import { getItem } from './items';
import { keys } from './keys';

/** True when the table answers a read. */
export async function storageAnswers(): Promise<boolean> {
  try {
    await getItem(keys.health());
    return true;
  } catch {
    return false;
  }
}
