import { render } from 'preact';
import '../styles/base.css';
import './cases.css';
import { CasesApp } from './cases-app.js';

const root = document.getElementById('app');
if (root !== null) render(<CasesApp />, root);
