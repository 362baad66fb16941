import { Module } from '@nestjs/common';
import { OpenApiController } from './openapi.controller';

/** The OpenAPI document, built from the contracts, and its browsable reference. */
@Module({ controllers: [OpenApiController] })
export class OpenApiModule {}
