/** The developer portal's entry (portal/index.html): the app into #app, with the console's stylesheet. */
import { render } from 'preact';
import '../styles.css';
import { PortalApp } from './app';

render(<PortalApp />, document.getElementById('app')!);
