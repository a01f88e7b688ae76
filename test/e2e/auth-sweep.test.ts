import { describeCredentialSweep } from '../support/credential-sweep';
import { useStage } from '../support/file-stage';

const s = useStage();

describeCredentialSweep('credential sweep over the route table', () => s);
