import { createRoot } from 'react-dom/client';
import './app/console.css';
import { App } from './app/App.tsx';
import { currentLocale } from './i18n/index.ts';

document.documentElement.lang = currentLocale() === 'cn' ? 'zh-CN' : 'en';
const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root');
createRoot(container).render(<App />);
