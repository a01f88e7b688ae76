/** The console's entry: the app into #app, with its stylesheet. */
import { render } from 'preact';
import { App } from './app';
import './styles.css';

render(<App />, document.getElementById('app')!);
