/** The health check's one question: does storage answer? */
export { storageAnswers } from '../store/health';
