export { catalog, type Item } from './catalog.js';
export { createShopService, ORDER_UNDO_WINDOW, SHIPPING, SHOP_ID } from './service.js';
