import { render } from 'preact';
import { App } from './app.js';
import './styles/base.css';
import './styles/playground.css';
import './styles/replies.css';
import './styles/consensus.css';

const root = document.getElementById('app');
if (root !== null) render(<App />, root);
