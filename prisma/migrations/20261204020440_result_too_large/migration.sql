-- AlterEnum
ALTER TYPE "ErrorKind" ADD VALUE 'result_too_large';
