import { SetMetadata } from '@nestjs/common';

export const IS_PUBLIC = 'credit:public';

/** Opens a route without a key: health, the OpenAPI document and its browsable reference. */
export const Public = () => SetMetadata(IS_PUBLIC, true);
